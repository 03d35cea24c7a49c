// The little of oidc-provider's surface the test provider uses (the package ships no types of its own).
declare module "oidc-provider" {
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    listen(port: number, host: string, ready: () => void): unknown;
  }
}
