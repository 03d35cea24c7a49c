// The applier an agent's every shell command starts through (`~/.memnox/app/memnox-wall`, Claude Code's
// CLAUDE_CODE_SHELL_PREFIX, Codex's and Gemini CLI's shell trampolines). It decides nothing and plans nothing: it
// raises the plan memnox wrote (agent-wall.plan, from the one description and the one planner) and execs the shell.
// Perl because a Bun start costs a command more than the command itself: perl is on every system that has git, starts
// in a few milliseconds, and reaches every system call through `syscall`. `-T` keeps PERL5LIB and PERL5OPT from
// loading code into it before the wall is up; it loads no module at all. A plan missing, stale or unreadable hands
// the call to the memnox binary's own applier (the `wall agent` face), which plans again and raises the same rules.
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { writeFileAtomic } from "../io/files.ts";

/** Where perl is looked for: the absolute path goes in the shebang, so no PATH an agent sets can choose it. */
const PERLS = ["/usr/bin/perl", "/bin/perl", "/usr/local/bin/perl"];

/** Set by the binary's applier when it hands a plan it just wrote back to perl: stale again means refused. */
export const REPLANNED = "MEMNOX_WALL_REPLANNED";

/** Whether the applier at `path` is the perl script (not the link to the binary, which would hand it back). */
export function isPerlApplier(path: string): boolean {
  try {
    return readFileSync(path, "utf8").slice(0, 300).includes("# memnox-wall: written by memnox");
  } catch {
    return false;
  }
}

/**
 * A mount namespace of this process's own, its mounts seen by nothing outside. The person gets an unprivileged user
 * namespace mapping them to themselves; root (a container, CI) needs none and may not map itself into one. Perl,
 * shared by the applier and the probe; answers '' or why not. (syscall wants writable strings: none are literals.)
 */
export const OWN_NAMESPACE = `sub own_namespace {
  my ($unshare, $mount) = @_;
  if ($< == 0) {
    my $root = '/';
    syscall($unshare, 0x00020000) == 0 or return "unshare: $!";
    syscall($mount, 0, $root, 0, 0x4000 | 0x80000, 0) == 0 or return "mount propagation: $!";
    return '';
  }
  my $uid = $<;
  my ($gid) = split(' ', $();
  syscall($unshare, 0x10000000 | 0x00020000) == 0 or return "unshare: $!";
  for (['setgroups', 'deny'], ['uid_map', "$uid $uid 1\\n"], ['gid_map', "$gid $gid 1\\n"]) {
    my $m;
    open($m, '>', "/proc/self/$_->[0]") && print($m $_->[1]) && close($m) or return "/proc/self/$_->[0]: $!";
  }
  return '';
}`;

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
sub fallback { refuse('the wall could not be raised: its plan went stale while it was written') if $ENV{${REPLANNED}}; exec { $app } 'memnox', 'wall', 'agent', @args; refuse("the wall could not be raised: $app: $!"); }

open(my $fh, '<', $plan) or fallback();
my @lines = <$fh>;
close($fh);
chomp(@lines);
fallback() unless @lines && $lines[0] eq 'memnox-wall 1' && $lines[-1] eq 'end';
my (%n, @rules, @ports, %exempt, @hide, @hideenv, $placeholder);
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
  elsif ($l =~ m{\\Ahide (/.+)\\z}s) { push @hide, $1; }
  elsif ($l =~ /\\Ahideenv (\\w+)\\z/) { push @hideenv, $1; }
  elsif ($l =~ m{\\Aplaceholder (/.+)\\z}s) { $placeholder = $1; }
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
hide_from_command() if @hide || @hideenv;
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
# Off the person's terminal: without it as its controlling terminal no command can push keystrokes into it (TIOCSTI),
# which the shell or the agent's prompt would read as the person's. A prompt for a passphrase fails instead of waiting.
# A session leader letting go of it is sent SIGHUP: ignored for that moment only (an ignored signal survives exec).
if (open(my $tty, '+<', '/dev/tty')) { local $SIG{HUP} = 'IGNORE'; ioctl($tty, 0x5422, 0); close($tty); }
$ENV{MEMNOX_WALL} = "$dir/../guard/agent-wall.json";
run_shell();

# Servers outside the wall that run what they are sent (systemd's user bus, tmux, docker, the display) listen on
# sockets Landlock has no rule for, and files the rules deny by name (.env) sit beside files the command needs: this
# command gets a mount namespace where they are not there. Before Landlock, which forbids mounting; the mounts cannot
# be taken off from inside (Landlock again, and no capability survives the exec of a shell run as the person).
sub hide_from_command {
  my @paths = grep { -e $_ || -l $_ } @hide;
  for my $v (@hideenv) {
    my $s = $ENV{$v};
    next unless defined $s && $s ne '';
    $s =~ s{\\A(?:unix:path=|unix://|unix:)}{};
    $s =~ s{[,;].*\\z}{}s;
    $s = ($ENV{XDG_RUNTIME_DIR} // "/run/user/$<") . "/$s" unless $s =~ m{\\A/};
    push @paths, $s if -S $s;
  }
  return unless @paths;
  my $why = own_namespace($n{unshare}, $n{mount});
  refuse("a mount namespace for this command could not be made: $why") if $why;
  my ($none, $tmpfs, $opts) = ('none', 'tmpfs', 'mode=0700,size=64k');
  my $cover = defined $placeholder && -S $placeholder ? $placeholder : '/dev/null';
  for my $p (@paths) {
    my $r = -d $p ? syscall($n{mount}, $none, $p, $tmpfs, 6, $opts) : syscall($n{mount}, $cover, $p, 0, 4096, 0);
    refuse("$p could not be hidden from this command: $!") if $r != 0 && (-e $p || -l $p);
  }
}

${OWN_NAMESPACE}
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
