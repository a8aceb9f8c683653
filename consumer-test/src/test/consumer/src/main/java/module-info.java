// SPDX-License-Identifier: Apache-2.0
/** A user's module: it needs only jccl's API module. */
module jccl.consumer {
    requires io.jccl.core;
}
