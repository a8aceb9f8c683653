// SPDX-License-Identifier: Apache-2.0
/**
 * jccl's logger ({@link io.jccl.log.Log}): every line the library writes, at the levels and for the
 * subsystems of JCCL_DEBUG and JCCL_DEBUG_SUBSYS, to JCCL_DEBUG_FILE, the application's
 * System.Logger, or standard error. Not exported: applications configure it through
 * {@link io.jccl.Config} and route it through their own {@link java.lang.System.LoggerFinder}.
 */
package io.jccl.log;
