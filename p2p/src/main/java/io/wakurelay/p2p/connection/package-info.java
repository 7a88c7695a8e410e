/**
 * What the layers above the host hold of libp2p, and what the host's own parts ({@code mux}, {@code echo}) build on
 * without depending on the host: in flow order,
 * <ul>
 * <li>{@link io.wakurelay.p2p.connection.Transport}: TCP, WS or WSS, the {@code transport} label of the metrics.</li>
 * <li>{@link io.wakurelay.p2p.connection.Connection}: an upgraded connection to a proven peer.</li>
 * <li>{@link io.wakurelay.p2p.connection.Stream}, {@link io.wakurelay.p2p.connection.StreamHandler},
 *     {@link io.wakurelay.p2p.connection.ProtocolHandler}: one negotiated protocol on a connection, and what serves
 *     it.</li>
 * <li>{@link io.wakurelay.p2p.connection.P2pException}: a connection or stream that ended or could not be made.</li>
 * </ul>
 */
package io.wakurelay.p2p.connection;
