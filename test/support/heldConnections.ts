/**
 * Which of a set of loopback connections another process still holds open, read from Linux's
 * /proc: the process's socket descriptors, and the TCP table that says where each one goes. A
 * server that dropped a client's connection has closed its descriptor, whether or not the client
 * has read (or will ever read) what was sent before.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The inodes of the sockets process `pid` has open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined) inodes.add(inode);
    } catch {
      // Closed between the listing and the read.
    }
  }
  return inodes;
}

/**
 * Which of the connections from the local ports `clientPorts` process `pid` holds open (IPv4 and
 * IPv6 loopback alike): their ports.
 */
export function heldPorts(pid: number, clientPorts: ReadonlySet<number>): Set<number> {
  const inodes = socketInodes(pid);
  const held = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      const remote = columns[2];
      const inode = columns[9];
      if (remote === undefined || inode === undefined || !inodes.has(inode)) continue;
      const port = Number.parseInt(remote.slice(remote.lastIndexOf(':') + 1), 16);
      if (clientPorts.has(port)) held.add(port);
    }
  }
  return held;
}
