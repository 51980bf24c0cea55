/** The HTTP methods the simulated API answers. */

/** HTTP methods the API uses. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
