package io.wakurelay.rln.chain;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Eth clients in memory: each endpoint's chain, the contract's root and count, and failures a test switches on. */
final class FakeEthRpc implements EthRpc {
    static final String ROOT_CALL = Abi.callData(Abi.ROOT);
    static final String COUNT_CALL = Abi.callData(Abi.NEXT_FREE_INDEX);

    /** One endpoint. Null failures: it answers. A null root: no contract (eth_call returns no bytes). */
    static final class Node {
        volatile long chainId;
        volatile RpcFailure down;
        volatile RpcFailure callsFail;
        volatile RpcFailure countFails;
        volatile byte[] root;
        volatile long count;
        final AtomicInteger chainIdCalls = new AtomicInteger();
        final AtomicInteger rootCalls = new AtomicInteger();
        final AtomicInteger countCalls = new AtomicInteger();

        Node(long chainId) {
            this.chainId = chainId;
        }

        /** The contract after one more registration, with this root (little-endian, as the vectors give it). */
        void register(byte[] rootLe) {
            root = rootLe;
            count++;
        }
    }

    private final Map<URI, Node> nodes = new ConcurrentHashMap<>();
    volatile boolean closed;

    Node add(URI endpoint, long chainId) {
        Node node = new Node(chainId);
        nodes.put(endpoint, node);
        return node;
    }

    @Override
    public long chainId(URI endpoint) throws RpcException {
        Node node = node(endpoint);
        node.chainIdCalls.incrementAndGet();
        fail(node.down);
        return node.chainId;
    }

    @Override
    public byte[] call(URI endpoint, String contract, String callData) throws RpcException {
        Node node = node(endpoint);
        if (callData.equals(ROOT_CALL)) {
            node.rootCalls.incrementAndGet();
        } else if (callData.equals(COUNT_CALL)) {
            node.countCalls.incrementAndGet();
            fail(node.countFails);
        } else {
            throw new RpcException(RpcFailure.RPC_ERROR, "execution reverted: unknown call " + callData);
        }
        fail(node.down);
        fail(node.callsFail);
        if (node.root == null) {
            throw new RpcException(RpcFailure.NO_CONTRACT, "eth_call of " + callData + " to " + contract
                    + " returned no bytes");
        }
        if (callData.equals(ROOT_CALL)) {
            return ChainVectors.word(ChainVectors.uint256(node.root));
        }
        return ChainVectors.word(java.math.BigInteger.valueOf(node.count));
    }

    private Node node(URI endpoint) throws RpcException {
        Node node = nodes.get(endpoint);
        if (node == null) {
            throw new RpcException(RpcFailure.CONNECTION, "Connection refused");
        }
        return node;
    }

    private static void fail(RpcFailure failure) throws RpcException {
        if (failure != null) {
            throw new RpcException(failure, "fake " + failure.label());
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
