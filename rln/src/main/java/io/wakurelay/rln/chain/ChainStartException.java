package io.wakurelay.rln.chain;

/**
 * The membership roots cannot start: no eth client address or contract given, no eth client answered
 * {@code eth_chainId}, the chain is not the one {@code --rln-relay-chain-id} names, or no contract at the address
 * answers {@code root()}. The message is one line that names the flag to look at; the node prints it and stops.
 */
public final class ChainStartException extends RuntimeException {
    public ChainStartException(String message) {
        super(message);
    }
}
