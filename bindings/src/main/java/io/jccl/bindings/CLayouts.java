// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.ValueLayout;

/**
 * The C types of the bound headers as memory layouts, for the LP64 Linux ABI the bindings target
 * ({@code long}, {@code size_t} and pointers are 8 bytes). Unsigned C types use the signed layout
 * of the same size, as jextract does.
 */
public final class CLayouts {
    private CLayouts() {}

    /** {@code char}, {@code uint8_t}. */
    public static final ValueLayout.OfByte C_CHAR = ValueLayout.JAVA_BYTE;
    /** {@code short}, {@code uint16_t}. */
    public static final ValueLayout.OfShort C_SHORT = ValueLayout.JAVA_SHORT;
    /** {@code int}, {@code unsigned int}, {@code uint32_t}, enums. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    /** {@code long}, {@code long long}, {@code size_t}, {@code uint64_t}, {@code CUdeviceptr}. */
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    /** {@code float}. */
    public static final ValueLayout.OfFloat C_FLOAT = ValueLayout.JAVA_FLOAT;
    /** Any data or function pointer. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;
}
