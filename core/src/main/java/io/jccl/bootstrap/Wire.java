// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The encoding of bootstrap messages: big-endian integers, length-prefixed strings and byte
 * strings, addresses as family, bytes and port. Every read is bounds-checked and a violation is a
 * {@link BadFrame}, so a hostile or corrupt message can neither overflow nor allocate unbounded.
 */
final class Wire {
    private Wire() {
    }

    static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

        Writer u8(int v) {
            out.write(v);
            return this;
        }

        Writer u16(int v) {
            out.write(v >>> 8);
            out.write(v);
            return this;
        }

        Writer i32(int v) {
            u16(v >>> 16);
            return u16(v & 0xffff);
        }

        Writer i64(long v) {
            i32((int) (v >>> 32));
            return i32((int) v);
        }

        Writer raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Writer bytes(byte[] b) {
            i32(b.length);
            return raw(b);
        }

        Writer string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length > 0xffff) {
                throw new IllegalArgumentException("string of " + b.length + " bytes");
            }
            u16(b.length);
            return raw(b);
        }

        Writer inetAddress(InetAddress a) {
            byte[] b = a.getAddress();
            u8(b.length == 4 ? 4 : 6);
            raw(b);
            return i32(a instanceof Inet6Address v6 ? v6.getScopeId() : 0);
        }

        Writer address(InetSocketAddress a) {
            inetAddress(a.getAddress());
            return u16(a.getPort());
        }

        byte[] toByteArray() {
            return out.toByteArray();
        }
    }

    static final class Reader {
        private final ByteBuffer buf;
        private final String what;

        Reader(byte[] b, String what) {
            this.buf = ByteBuffer.wrap(b);
            this.what = what;
        }

        private BadFrame bad(String problem) {
            return new BadFrame(what + ": " + problem);
        }

        int u8() throws BadFrame {
            try {
                return buf.get() & 0xff;
            } catch (BufferUnderflowException e) {
                throw bad("truncated");
            }
        }

        int u16() throws BadFrame {
            try {
                return buf.getShort() & 0xffff;
            } catch (BufferUnderflowException e) {
                throw bad("truncated");
            }
        }

        int i32() throws BadFrame {
            try {
                return buf.getInt();
            } catch (BufferUnderflowException e) {
                throw bad("truncated");
            }
        }

        long i64() throws BadFrame {
            try {
                return buf.getLong();
            } catch (BufferUnderflowException e) {
                throw bad("truncated");
            }
        }

        byte[] raw(int n) throws BadFrame {
            if (n < 0 || n > buf.remaining()) {
                throw bad("wants " + n + " bytes, " + buf.remaining() + " left");
            }
            byte[] b = new byte[n];
            buf.get(b);
            return b;
        }

        byte[] bytes(int max) throws BadFrame {
            int n = i32();
            if (n < 0 || n > max) {
                throw bad("a byte string of " + n + " bytes (at most " + max + ")");
            }
            return raw(n);
        }

        String string(int maxBytes) throws BadFrame {
            int n = u16();
            if (n > maxBytes) {
                throw bad("a string of " + n + " bytes (at most " + maxBytes + ")");
            }
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw(n))).toString();
            } catch (CharacterCodingException e) {
                throw bad("a string that is not UTF-8");
            }
        }

        InetAddress inetAddress() throws BadFrame {
            int family = u8();
            if (family != 4 && family != 6) {
                throw bad("address family " + family);
            }
            byte[] b = raw(family == 4 ? 4 : 16);
            int scope = i32();
            try {
                return family == 4 ? Inet4Address.getByAddress(b)
                        : scope != 0 ? Inet6Address.getByAddress(null, b, scope) : InetAddress.getByAddress(b);
            } catch (UnknownHostException e) {
                throw bad("address: " + e.getMessage());
            }
        }

        InetSocketAddress address() throws BadFrame {
            InetAddress a = inetAddress();
            int port = u16();
            if (port == 0) {
                throw bad("port 0");
            }
            return new InetSocketAddress(a, port);
        }

        /** Fails when bytes are left over: a message is exactly its fields. */
        void end() throws BadFrame {
            if (buf.hasRemaining()) {
                throw bad(buf.remaining() + " unexpected trailing bytes");
            }
        }
    }
}
