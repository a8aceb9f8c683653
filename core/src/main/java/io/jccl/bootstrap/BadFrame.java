// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.io.IOException;

/**
 * The other side broke the wire protocol: a length out of bounds, a wrong magic or version, a
 * message that does not parse, a proof or MAC that does not verify. Never a partial read of a
 * well-formed frame, which is an ordinary {@link IOException}.
 */
final class BadFrame extends IOException {
    private static final long serialVersionUID = 1L;

    BadFrame(String message) {
        super(message);
    }
}
