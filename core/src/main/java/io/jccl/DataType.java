// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * The element types of NCCL ({@code ncclDataType_t}), with NCCL's numeric values; a call's
 * counts are elements of its type, and {@link #bytes(long)} sizes its buffers:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="data-type"}
 */
public enum DataType {
    INT8(0, 1, false, false),
    UINT8(1, 1, false, true),
    INT32(2, 4, false, false),
    UINT32(3, 4, false, true),
    INT64(4, 8, false, false),
    UINT64(5, 8, false, true),
    FLOAT16(6, 2, true, false),
    FLOAT32(7, 4, true, false),
    FLOAT64(8, 8, true, false),
    BFLOAT16(9, 2, true, false),
    /** OCP float8 E4M3 (no infinities, one NaN pattern per sign, max 448). */
    FLOAT8_E4M3(10, 1, true, false),
    /** OCP float8 E5M2 (IEEE-like, max 57344). */
    FLOAT8_E5M2(11, 1, true, false);

    private final int ncclValue;
    private final int size;
    private final boolean floating;
    private final boolean unsigned;

    DataType(int ncclValue, int size, boolean floating, boolean unsigned) {
        this.ncclValue = ncclValue;
        this.size = size;
        this.floating = floating;
        this.unsigned = unsigned;
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    /** Bytes taken by {@code count} elements. */
    public long bytes(long count) {
        return Math.multiplyExact(count, (long) size);
    }

    public boolean isFloatingPoint() {
        return floating;
    }

    /** True for the unsigned integer types. */
    public boolean isUnsigned() {
        return unsigned;
    }

    /** The value of the same type in NCCL's {@code ncclDataType_t}. */
    public int ncclValue() {
        return ncclValue;
    }

    /**
     * Parses the names nccl-tests and jccl accept: {@code float}, {@code float32}, {@code half},
     * {@code bf16}, {@code int8}, {@code uint64}, {@code e4m3}, ... (case-insensitive).
     */
    public static DataType parse(String name) {
        String n = name.trim().toLowerCase().replace("_", "");
        return switch (n) {
            case "int8", "char" -> INT8;
            case "uint8" -> UINT8;
            case "int32", "int" -> INT32;
            case "uint32" -> UINT32;
            case "int64" -> INT64;
            case "uint64" -> UINT64;
            case "float16", "half", "fp16", "f16" -> FLOAT16;
            case "float32", "float", "fp32", "f32" -> FLOAT32;
            case "float64", "double", "fp64", "f64" -> FLOAT64;
            case "bfloat16", "bf16" -> BFLOAT16;
            case "float8e4m3", "fp8e4m3", "e4m3" -> FLOAT8_E4M3;
            case "float8e5m2", "fp8e5m2", "e5m2" -> FLOAT8_E5M2;
            default -> throw JcclException.invalidArgument(JcclException.NO_RANK, "datatype",
                    "'" + name + "' is not a data type (int8, uint8, int32, uint32, int64, uint64, "
                            + "float16, bfloat16, float32, float64, e4m3, e5m2)");
        };
    }
}
