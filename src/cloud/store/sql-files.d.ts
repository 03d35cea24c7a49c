// Migrations are plain .sql files, imported as text so the compiled binary carries them.
declare module "*.sql" {
  const text: string;
  export default text;
}
