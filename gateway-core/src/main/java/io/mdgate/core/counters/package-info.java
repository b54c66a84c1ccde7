/**
 * The counters contract every module shares. Each module declares its counters in a descriptor enum
 * ({@link io.mdgate.core.counters.CounterDescriptor}: a stable label suffix and a
 * {@link io.mdgate.core.counters.CounterType}), takes a {@link io.mdgate.core.counters.CounterAllocator} through its
 * context, allocates its Agrona {@code AtomicCounter}s once and updates them itself, on its own thread, where the
 * event happens. The gateway's counters file is one allocator (other processes read it live);
 * {@link io.mdgate.core.counters.PrivateCounters} is the one for tools and tests. Nothing copies counters from plain
 * fields into the file.
 */
package io.mdgate.core.counters;
