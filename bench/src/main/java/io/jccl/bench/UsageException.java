// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

/**
 * A command line the tool cannot run: an unknown subcommand or option, a missing or malformed
 * value. Its message is one line that names the offending option; {@link Main} prints it and exits
 * with status 2, as command-line tools conventionally do for usage errors.
 */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
