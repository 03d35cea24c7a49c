// The htmx bundle is imported as text (`with { type: "text" }`): the binary serves it from memory, never a CDN.
declare module "htmx.org/dist/htmx.min.js" {
  const text: string;
  export default text;
}
