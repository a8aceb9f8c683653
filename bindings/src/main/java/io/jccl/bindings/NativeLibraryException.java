// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

/**
 * A native library or one of its symbols is not there. Raised when a bound function is first
 * called, never when the binding class loads, so a program that never calls CUDA or ibverbs runs
 * without them.
 */
public class NativeLibraryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NativeLibraryException(String message) {
        super(message);
    }

    public NativeLibraryException(String message, Throwable cause) {
        super(message, cause);
    }
}
