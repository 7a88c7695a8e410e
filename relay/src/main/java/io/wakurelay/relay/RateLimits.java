package io.wakurelay.relay;

/**
 * What one peer connection may send per second (0 = unlimited), each limit a token bucket that holds one
 * second's worth, so a peer may burst that much and sustain the rate. docs/relay.md ("Rate limits") and ADR 0031
 * say why the defaults are what they are.
 *
 * <ul>
 * <li>Publish frames, counted in messages and in bytes (frames as received, refused and duplicate ones included):
 * past either limit the relay <em>reads that connection more slowly</em> (TCP backpressure on that one peer),
 * so an honest fast publisher is slowed, never cut off, and loses nothing it sends with backpressure.</li>
 * <li>Control frames (Ping, Pong, Subscribe, Unsubscribe): an honest node sends a few a minute, so a peer past
 * the limit is flooding and is disconnected with {@code Goodbye(RATE_LIMITED)}.</li>
 * </ul>
 *
 * @param publishMessagesPerSecond Publish frames per second per connection; 0 = unlimited
 * @param publishBytesPerSecond    bytes of Publish frames per second per connection; 0 = unlimited, else at least
 *                                 the largest message (checked by {@link RelayConfig}), so any message waits at most
 *                                 about a second
 * @param controlFramesPerSecond   control frames per second per connection; 0 = unlimited
 */
public record RateLimits(long publishMessagesPerSecond, long publishBytesPerSecond, long controlFramesPerSecond) {
    /** The value that turns a limit off. */
    public static final long UNLIMITED = 0;
    /**
     * Two orders of magnitude above what an honest node sends (a Ping and a Pong per half idle timeout, and a
     * Subscribe or Unsubscribe per local change), and low enough that a flood is cut off within a second.
     */
    public static final long DEFAULT_CONTROL_FRAMES_PER_SECOND = 100;
    /** Publish unlimited (a relay must not slow honest high-throughput peers unless told to), control frames capped. */
    public static final RateLimits DEFAULTS = new RateLimits(UNLIMITED, UNLIMITED, DEFAULT_CONTROL_FRAMES_PER_SECOND);
    /** No limit at all. */
    public static final RateLimits NONE = new RateLimits(UNLIMITED, UNLIMITED, UNLIMITED);

    public RateLimits {
        notNegative("publish messages per second", publishMessagesPerSecond);
        notNegative("publish bytes per second", publishBytesPerSecond);
        notNegative("control frames per second", controlFramesPerSecond);
    }

    /** True when reading Publish frames must be paced. */
    public boolean limitsPublish() {
        return publishMessagesPerSecond != UNLIMITED || publishBytesPerSecond != UNLIMITED;
    }

    public RateLimits withPublish(long messagesPerSecond, long bytesPerSecond) {
        return new RateLimits(messagesPerSecond, bytesPerSecond, controlFramesPerSecond);
    }

    public RateLimits withControlFrames(long perSecond) {
        return new RateLimits(publishMessagesPerSecond, publishBytesPerSecond, perSecond);
    }

    private static void notNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must be 0 (unlimited) or more, was " + value);
        }
    }
}
