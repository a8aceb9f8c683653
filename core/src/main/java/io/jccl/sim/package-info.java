// SPDX-License-Identifier: Apache-2.0
/**
 * The fourth executor: runs the plans the engines run in simulated time on a modelled fabric, to
 * predict calls of more ranks than any machine here has. {@link io.jccl.sim.SimFabric} says what
 * carries a message (links with their ports and bandwidth, latency, where the ranks' cores are
 * shared), {@link io.jccl.sim.SimCosts} what an engine spends on a step (calibrated, one file:
 * {@link io.jccl.sim.Calibration}), {@link io.jccl.sim.Simulator} plays a plan step by step, and
 * {@link io.jccl.sim.CallSimulator} plans a call as an engine would and plays it. docs/simulator.md
 * has the model, its calibration and how its predictions compare with measured runs.
 */
package io.jccl.sim;
