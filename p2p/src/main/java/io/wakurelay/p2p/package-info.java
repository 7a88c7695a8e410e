/**
 * A libp2p host on Reactor Netty. Knows nothing of Waku. docs/p2p.md describes the layers.
 */
package io.wakurelay.p2p;
