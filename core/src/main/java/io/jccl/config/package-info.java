// SPDX-License-Identifier: Apache-2.0
/**
 * The settings table behind {@link io.jccl.Config}: one row per {@code JCCL_*} variable
 * ({@link io.jccl.config.Settings}) and the values a Config holds ({@link io.jccl.config.Values}).
 * Not exported: applications see only Config.
 */
package io.jccl.config;
