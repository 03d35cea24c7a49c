// The variable a kernel wall's helpers set for what runs inside it: seams read it to know their files are read-only.
export const WALL_VAR = "MEMNOX_WALL";
