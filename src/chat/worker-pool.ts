/** The worker pool lives in the kernel, shared with the MDX compiler; the assistant's worker names it from here. */
export * from '../kernel/worker-pool.ts';
