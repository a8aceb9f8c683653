package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.stream.Collectors;

/**
 * What rank 0 gives every rank at init so that all plan alike: its plan-deciding settings (buffer
 * sizes, JCCL_ALGO, JCCL_PROTO, channel bounds, JCCL_INTER_BW/LATENCY, and the transports it
 * disabled: both ends of a connection must choose alike), its core count and the contents of its tuning file
 * (the tuner decides from shared state only), a random id naming this communicator's
 * shared-memory files and keying the socket transport's connections (with the bootstrap's secret).
 *
 * @param tuningFile  rank 0's tuning file name (for messages), or null
 * @param tuningText  its contents, or null
 */
public record SharedSettings(long commId, boolean p2pDisable, boolean shmDisable, long buffSize, long llBuffSize, long ll128BuffSize,
                      String algorithms, String protocols, int minChannels, int maxChannels, boolean channelsGiven, double interBandwidth,
                      double interLatency, double intraBandwidth, double intraLatency, int cores, String tuningFile, String tuningText) {
    private static final int MAGIC = 0x4a43_5335; // "JCS5"
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Rank 0's settings (reads its tuning file). */
    public static SharedSettings of(Config c) {
        String text = null;
        Path f = c.tuningFile();
        if (f != null) {
            try {
                text = Files.readString(f);
            } catch (IOException e) {
                throw JcclException.invalidArgument(0, "JCCL_TUNING_FILE", "cannot be read: " + f + ": " + e);
            }
        }
        long id = RANDOM.nextLong() & Long.MAX_VALUE;
        return new SharedSettings(id == 0 ? 1 : id, c.p2pDisable(), c.shmDisable(), c.buffSize(Protocol.SIMPLE), c.buffSize(Protocol.LL),
                c.buffSize(Protocol.LL128), String.join(",", c.algorithms()),
                c.protocols().stream().map(Protocol::id).collect(Collectors.joining(",")), c.minChannels(), c.maxChannels(),
                c.channelBoundsGiven(), c.interBandwidth(), c.interLatency(), c.intraBandwidth(), c.intraLatency(), Runtime.getRuntime().availableProcessors(), f == null ? null : f.toString(), text);
    }

    /**
     * {@code own} with these plan-deciding settings; the rank keeps its timeout, debug level and the
     * rest. Rank 0's channel bounds hold on every rank; those it left at their defaults still
     * count as defaults (the CUDA engine sizes channels to the GPU only then).
     */
    public Config applyTo(Config own) {
        Config c = own.withBuffSize(Protocol.SIMPLE, buffSize).withBuffSize(Protocol.LL, llBuffSize)
                .withBuffSize(Protocol.LL128, ll128BuffSize).withAlgorithms(algorithms).withProtocols(protocols)
                .withInterServer(interBandwidth, interLatency)
                .withIntraServer(intraBandwidth, intraLatency).withP2pDisable(p2pDisable).withShmDisable(shmDisable);
        c = channelsGiven ? c.withChannels(minChannels, maxChannels) : c.withDefaultChannels(minChannels, maxChannels);
        return c.withTuningFile(tuningFile == null ? null : Path.of(tuningFile));
    }

    public byte[] encode() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream o = new DataOutputStream(b)) {
            o.writeInt(MAGIC);
            o.writeLong(commId);
            o.writeBoolean(p2pDisable);
            o.writeBoolean(shmDisable);
            o.writeLong(buffSize);
            o.writeLong(llBuffSize);
            o.writeLong(ll128BuffSize);
            writeString(o, algorithms);
            writeString(o, protocols);
            o.writeInt(minChannels);
            o.writeInt(maxChannels);
            o.writeBoolean(channelsGiven);
            o.writeDouble(interBandwidth);
            o.writeDouble(interLatency);
            o.writeDouble(intraBandwidth);
            o.writeDouble(intraLatency);
            o.writeInt(cores);
            writeString(o, tuningFile);
            writeString(o, tuningText);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    public static SharedSettings decode(byte[] bytes, int rank) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readInt() != MAGIC) {
                throw new IOException("not rank 0's settings");
            }
            SharedSettings s = new SharedSettings(in.readLong(), in.readBoolean(), in.readBoolean(), in.readLong(), in.readLong(),
                    in.readLong(), readString(in), readString(in), in.readInt(), in.readInt(), in.readBoolean(), in.readDouble(), in.readDouble(),
                    in.readDouble(), in.readDouble(), in.readInt(), readString(in), readString(in));
            if (in.read() != -1) {
                throw new IOException("trailing bytes");
            }
            return s;
        } catch (IOException e) {
            throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "rank 0's settings are malformed: " + e.getMessage(), e);
        }
    }

    private static void writeString(DataOutputStream o, String s) throws IOException {
        if (s == null) {
            o.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        o.writeInt(b.length);
        o.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        if (n > io.jccl.bootstrap.Bootstrap.MAX_MESSAGE) {
            throw new IOException("a string of " + n + " bytes");
        }
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }
}
