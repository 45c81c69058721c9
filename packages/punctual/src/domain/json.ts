// JSON value types shared by payloads, results and details. Pure types, no code.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
