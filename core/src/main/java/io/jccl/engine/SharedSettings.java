// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.config.Values;

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

/**
 * What rank 0 gives every rank at init so that all plan alike: its settings that the table marks
 * shared (io.jccl.config.Settings: buffer sizes, JCCL_ALGO, JCCL_PROTO, channel bounds,
 * JCCL_INTER/INTRA_*, the transports it disabled: both ends of a connection must choose alike),
 * its core count and the contents of its tuning file (the tuner decides from shared state only),
 * and a random id naming this communicator's shared-memory files and keying the socket transport's
 * connections (with the bootstrap's secret).
 *
 * @param tuningText the contents of rank 0's tuning file, or null
 * @param rank0      rank 0's configuration, of which only the shared settings count (decoded
 *                   ones hold defaults elsewhere)
 */
public record SharedSettings(long commId, int cores, String tuningText, Config rank0) {
    private static final int MAGIC = 0x4a43_5336; // "JCS6"
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
        return new SharedSettings(id == 0 ? 1 : id, Runtime.getRuntime().availableProcessors(), text, c);
    }

    public boolean p2pDisable() {
        return rank0.p2pDisable();
    }

    public boolean shmDisable() {
        return rank0.shmDisable();
    }

    /** Rank 0's tuning file name (for messages), or null. */
    public String tuningFile() {
        Path f = rank0.tuningFile();
        return f == null ? null : f.toString();
    }

    /**
     * {@code own} with rank 0's shared settings; the rank keeps its timeout, debug level and the
     * rest. Each shared setting counts as given where rank 0's was: rank 0's channel bounds hold on
     * every rank, and those it left at their defaults still count as defaults (the CUDA engine
     * sizes channels to the GPU only then).
     */
    public Config applyTo(Config own) {
        return Values.of(own).withSharedOf(Values.of(rank0)).config();
    }

    public byte[] encode() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream o = new DataOutputStream(b)) {
            o.writeInt(MAGIC);
            o.writeLong(commId);
            o.writeInt(cores);
            writeString(o, tuningText);
            Values.of(rank0).writeShared(o);
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
            long commId = in.readLong();
            int cores = in.readInt();
            String tuningText = readString(in);
            Config rank0 = Values.defaults().readShared(in).config();
            if (in.read() != -1) {
                throw new IOException("trailing bytes");
            }
            return new SharedSettings(commId, cores, tuningText, rank0);
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
