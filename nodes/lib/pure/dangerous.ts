/**
 * Which operations of which node need the node's confirm setting: one list, read by the
 * nodes (which refuse such an operation without confirm, action/operation-choice.ts) and by the live
 * flow check (which names a node set to one without confirm, nodes/lib/pure/flow-check.ts).
 * Pure (no imports): the flow check is bundled into the editor too.
 *
 * Each entry changes the device's persistent or running state: a reset, a shutdown, the
 * bootloader, a saved or armed watchdog (see each node's header for why).
 */
export const DANGEROUS_OPERATIONS = {
  'bmc-system': ['usb_bootloader', 'hard_reset', 'module_reset'],
  'bmc-usbhub': ['reset'],
  'bmc-watchdog': ['timeout', 'save', 'shutdown', 'sw_shutdown_timeout'],
  'power-limits': ['module_reset'],
  // io-reset has no operation select: its one operation is the module reset.
  'io-reset': ['reset'],
} as const;

/** A node type with dangerous operations. */
export type GuardedType = keyof typeof DANGEROUS_OPERATIONS;

/** The value of the dialog's "from msg.operation" choice: a msg names the operation. */
export const FROM_MSG = 'msg';

/** bmc-watchdog's own keep-alive sets the timeout on connect: it needs confirm too. */
export const KEEP_ALIVE_OPERATION = 'keep-alive';
