// SPDX-License-Identifier: Apache-2.0
/**
 * How the ranks of a communicator find each other: a {@link io.jccl.bootstrap.CommId} (root
 * address and secret), the TCP rendezvous at a {@link io.jccl.bootstrap.BootstrapRoot} with mutual
 * proof of the secret, or any {@link io.jccl.bootstrap.OutOfBandAllGather} the job already has;
 * then a {@link io.jccl.bootstrap.Bootstrap} per rank with every rank's
 * {@link io.jccl.bootstrap.PeerInfo}, the {@link io.jccl.bootstrap.Locality} computed from them,
 * and authenticated connections for small exchanges. {@link io.jccl.bootstrap.Launch} reads
 * torchrun's, Open MPI's and Slurm's variables. Interface choice follows NCCL
 * ({@link io.jccl.bootstrap.NetInterfaces}). See docs/bootstrap.md.
 */
package io.jccl.bootstrap;
