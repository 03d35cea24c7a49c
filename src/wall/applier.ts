// The applier an agent's every shell command starts through (`~/.memnox/app/memnox-wall`, Claude Code's
// CLAUDE_CODE_SHELL_PREFIX, Codex's and Gemini CLI's shell trampolines). It decides nothing and plans nothing: it
// raises the plan memnox wrote (agent-wall.plan, from the one description and the one planner) and execs the shell.
// Perl because a Bun start costs a command more than the command itself: perl is on every system that has git, starts
// in a few milliseconds, and reaches every system call through `syscall`. `-T` keeps PERL5LIB and PERL5OPT from
// loading code into it before the wall is up; it loads no module at all. A plan missing, stale or unreadable hands
// the call to the memnox binary's own applier (the `wall agent` face), which plans again and raises the same rules.
import { chmodSync, existsSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { writeFileAtomic } from "../io/files.ts";

/** Where perl is looked for: the absolute path goes in the shebang, so no PATH an agent sets can choose it. */
const PERLS = ["/usr/bin/perl", "/bin/perl", "/usr/local/bin/perl"];

export function applierScript(perl: string): string {
  return `#!${perl} -T
# memnox-wall: written by memnox; runs one shell command inside the machine's agent wall (Landlock).
# Usage: memnox-wall '<shell command>'   or   memnox-wall -- <program> [args...]
for my $k (keys %ENV) { ($ENV{$k}) = $ENV{$k} =~ /\\A(.*)\\z/s; }
my @args = map { /\\A(.*)\\z/s; $1 } @ARGV;
my ($self) = $0 =~ /\\A(.*)\\z/s;
my $dir = $self =~ m{\\A(.*)/[^/]*\\z}s ? $1 : '.';
my $app = "$dir/memnox";
my $plan = "$dir/../guard/agent-wall.plan";

sub refuse { print STDERR "memnox: $_[0]\\n"; exit 126; }
# The binary's own applier plans again from the description and raises the same rules.
sub fallback { exec { $app } 'memnox', 'wall', 'agent', @args; refuse("the wall could not be raised: $app: $!"); }

open(my $fh, '<', $plan) or fallback();
my @lines = <$fh>;
close($fh);
chomp(@lines);
fallback() unless @lines && $lines[0] eq 'memnox-wall 1' && $lines[-1] eq 'end';
my (%n, @rules, @ports, %exempt);
for my $l (@lines) {
  if ($l =~ /\\Alist (\\d+) (\\d+) (.+)\\z/s) {
    my ($count, $sum, $d) = ($1, $2, $3);
    opendir(my $dh, $d) or fallback();
    my ($c, $s) = (0, 0);
    while (defined(my $e = readdir($dh))) { next if $e eq '.' || $e eq '..'; $c++; $s = ($s + unpack('%32C*', $e)) % 4294967296; }
    closedir($dh);
    fallback() if $c != $count || $s != $sum;
  } elsif ($l =~ /\\Arule (\\d+) (\\d+) (.+)\\z/s) { push @rules, [$1, $2, $3]; }
  elsif ($l =~ /\\Aport (\\d+) (\\d+)\\z/) { push @ports, [$1, $2]; }
  elsif ($l =~ /\\Aexempt (.+)\\z/s) { $exempt{$1} = 1; }
  elsif ($l =~ /\\A(\\w+) (-?\\d+)\\z/) { $n{$1} = 0 + $2; }
}
my $cmd = @args == 1 ? $args[0] : undef;
# memnox's own hooks, exactly as the agent's settings name them: the gate itself runs outside the wall.
if (defined $cmd && $exempt{$cmd}) { exec { '/bin/sh' } 'sh', '-c', $cmd; refuse("could not start memnox: $!"); }
# The wall bites in enforce only, as every verdict does; a seal that cannot be read is taken as enforce.
my $mode = 'enforce';
if (open(my $sh, '<', "$dir/../sealed.json")) { local $/; my $t = <$sh>; close($sh); $mode = $1 if $t =~ /"mode"\\s*:\\s*"(\\w+)"/; }
run_shell() if $mode ne 'enforce';

my $abi = $n{abi} // 0;
refuse('this kernel has no Landlock, and the agent wall was planned for one') if $abi < 1;
my $attr = pack('QQQ', $n{fs}, $n{net}, $n{scoped});
my $size = $abi >= 6 ? 24 : $abi >= 4 ? 16 : 8;
my $rs = syscall(444, substr($attr, 0, $size), $size, 0);
refuse("landlock_create_ruleset failed: $!") if $rs < 0;
for my $r (@rules) {
  my ($access, $listed, $path) = @$r;
  my $fd = syscall($n{openat}, -100, $path, $n{opath} | $n{ocloexec} | ($listed ? $n{onofollow} : 0), 0);
  next if $fd < 0;
  for my $a (0 + $access, (0 + $access) & $n{filerights}) {
    last if syscall(445, $rs, 1, pack('QL', $a, $fd), 0) == 0;
  }
  syscall($n{close}, $fd);
}
for my $p (@ports) { syscall(445, $rs, 2, pack('QQ', $p->[0], $p->[1]), 0) == 0 or refuse("the rule for TCP port $p->[1]: $!"); }
syscall($n{prctl}, 38, 1, 0, 0, 0) == 0 or refuse("prctl(PR_SET_NO_NEW_PRIVS) failed: $!");
syscall(446, $rs, 0) == 0 or refuse("landlock_restrict_self failed: $!");
syscall($n{close}, $rs);
$ENV{MEMNOX_WALL} = "$dir/../guard/agent-wall.json";
run_shell();

sub run_shell {
  if (defined $cmd) {
    my $shell = '/bin/bash';
    for my $c ($ENV{CLAUDE_CODE_SHELL}, $ENV{SHELL}) {
      if (defined $c && $c =~ m{\\A/\\S*(?:bash|zsh)\\z} && -x $c) { $shell = $c; last; }
    }
    exec { $shell } $shell, '-c', $cmd;
    refuse("could not start $shell: $!");
  }
  shift @args if @args && $args[0] eq '--';
  refuse('nothing to run') unless @args;
  exec { $args[0] } @args;
  refuse("could not start $args[0]: $!");
}
`;
}

/** The system's perl, by absolute path, or undefined (then the applier is the binary itself, by its name). */
export function findPerl(candidates: readonly string[] = PERLS): string | undefined {
  return candidates.find((p) => existsSync(p));
}

/**
 * Put the applier at `at`, beside the app binary: the perl script where perl exists, else a link to the binary,
 * whose `memnox-wall` name routes to the same applier face. Returns what was written.
 */
export function installApplier(at: string, app: string, perl: string | undefined): "perl" | "binary" {
  if (perl) {
    writeFileAtomic(at, applierScript(perl));
    chmodSync(at, 0o755);
    return "perl";
  }
  const tmp = `${at}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(app, tmp);
  renameSync(tmp, at);
  return "binary";
}
