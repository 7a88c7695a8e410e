package io.wakurelay.rln.chain;

/** A JSON-RPC call that failed, with why ({@link RpcFailure}) and a one-line detail that names no secret of the URL. */
final class RpcException extends Exception {
    private final RpcFailure failure;

    RpcException(RpcFailure failure, String detail) {
        super(detail, null, false, false);
        this.failure = failure;
    }

    RpcFailure failure() {
        return failure;
    }
}
