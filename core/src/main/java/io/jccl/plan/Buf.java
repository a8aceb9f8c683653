package io.jccl.plan;

/** The user buffers a step reads or writes. */
public enum Buf {
    /** The send buffer of the call (or of point-to-point operation {@link Region#op()}). */
    INPUT,
    /** The receive buffer. */
    OUTPUT
}
