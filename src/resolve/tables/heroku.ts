// heroku: `topic:command` words; config and scaling change a live app, destroys and resets remove data.
import type { VerbTable } from "../types.ts";
import { help, many } from "./entry.ts";

export const heroku = (): VerbTable => ({
  cli: "heroku",
  description: "Heroku: apps, dynos, config vars, Postgres",
  valueFlags: ["-a", "--app", "-r", "--remote", "-t", "--team"],
  verbs: [
    help("heroku"),
    ...many("", "heroku", "read", "apps apps:info info logs ps config config:get releases releases:info addons"),
    ...many("", "heroku", "read", "addons:info domains pg:info auth:whoami whoami status apps:errors drains access"),
    ...many("", "heroku", "read", "features stack buildpacks pipelines maintenance certs regions version"),
    ...many("", "heroku", "read", "pg:backups pg:credentials pg:diagnose redis:info spaces teams"),
    ...many("", "heroku", "write", "apps:create create addons:create addons:add domains:add git:remote login"),
    ...many("", "heroku", "write", "logout certs:add buildpacks:set buildpacks:add buildpacks:remove"),
    ...many("", "heroku", "write", "buildpacks:clear features:enable features:disable drains:remove pg:pull"),
    ...many("", "heroku", "write", "pg:backups:capture stack:set"),
    ...many("", "heroku", "communication", "apps:rename config:set config:add ps:scale scale ps:restart"),
    ...many("", "heroku", "communication", "restart ps:stop ps:kill ps:resize ps:type releases:rollback rollback"),
    ...many("", "heroku", "communication", "maintenance:on maintenance:off access:add container:push"),
    ...many("", "heroku", "communication", "container:release builds:create pipelines:promote drains:add"),
    ...many("", "heroku", "unknown", "run run:detached console pg:psql redis:cli"),
    ...many("", "heroku", "destructive", "apps:destroy destroy config:unset config:remove addons:destroy"),
    ...many("", "heroku", "destructive", "addons:remove pg:reset pg:backups:restore pg:backups:delete pg:killall"),
    ...many("", "heroku", "destructive", "pg:push domains:remove domains:clear access:remove certs:remove"),
    ...many("", "heroku", "destructive", "spaces:destroy"),
  ],
});
