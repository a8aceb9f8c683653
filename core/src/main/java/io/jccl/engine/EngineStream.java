// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

/**
 * What an API stream ({@code HostStream}, {@code CudaStream}) hands its engine: the engines take
 * these, never the API's types, and each refuses another engine's.
 */
public interface EngineStream {
    /** The API type a user passed, for errors ("HostStream"). */
    String apiName();
}
