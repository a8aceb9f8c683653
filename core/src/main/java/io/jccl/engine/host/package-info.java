// SPDX-License-Identifier: Apache-2.0
/**
 * Host-side (CPU) engine pieces: the element-wise reduction arithmetic of every data type on
 * {@link java.lang.foreign.MemorySegment}s, and conversions for the narrow float formats.
 */
package io.jccl.engine.host;
