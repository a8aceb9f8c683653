// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.Config;
import io.jccl.config.Settings;
import io.jccl.config.Values;

/**
 * The IB net's settings, read once from a communicator's {@link Config}: which ports
 * ({@code JCCL_IB_HCA}), the RoCE GID index, traffic class and service level, the ack timeout and
 * retries of its queue pairs, and queue pairs per connection.
 */
record IbOptions(IbHcaFilter hca, int gidIndex, int trafficClass, int serviceLevel, int timeout, int retryCount, int qps) {
    static IbOptions of(Config config) {
        Values v = Values.of(config);
        IbHcaFilter hca = v.get(Settings.IB_HCA);
        return new IbOptions(hca != null ? hca : IbHcaFilter.ALL, v.get(Settings.IB_GID_INDEX), v.get(Settings.IB_TC),
                v.get(Settings.IB_SL), v.get(Settings.IB_TIMEOUT), v.get(Settings.IB_RETRY_CNT), v.get(Settings.IB_QPS_PER_CONNECTION));
    }
}
