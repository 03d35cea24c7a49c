// The console's assets, imported as text so the compiled binary carries them.
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "htmx.org/dist/htmx.min.js" {
  const text: string;
  export default text;
}
