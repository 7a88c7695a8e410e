// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.24;

/// @title The RLN membership contract's read interface, for tests
/// @notice Offers the functions nwaku's OnchainGroupManager calls on The Waku Network's membership contract
///         (waku-rlnv2-contract's WakuRlnV2), with the same names, parameter lists and return types:
///         root(), nextFreeIndex() and maxMembershipRateLimit(). isInMembershipSet(uint256) and
///         getMerkleProof(uint40), which nwaku calls only for a membership of its own, are not here.
///         The test sets the state: no Merkle tree and no Poseidon are computed; the roots come from the RLN test
///         vectors, which were computed off chain.
/// @dev No constructor and no immutables: the runtime code placed at another address with anvil_setCode (as at
///      The Waku Network's address) starts from zeroed storage and works the same. Storage layout, for
///      anvil_setStorageAt:
///        slot 0: currentRoot (uint256)
///        slot 1: nextFreeIndex (uint32, the low-order 4 bytes), maxMembershipRateLimit (uint32, the next 4 bytes)
contract RlnMembershipForTests {
    uint256 private currentRoot;

    /// @notice The index the next membership gets: the number of registrations (uint32, as WakuRlnV2's)
    uint32 public nextFreeIndex;

    /// @notice The largest rate limit a membership may have (uint32, as WakuRlnV2's)
    uint32 public maxMembershipRateLimit;

    /// @notice The root of the membership Merkle tree, as WakuRlnV2's root(): a field element as a uint256
    function root() external view returns (uint256) {
        return currentRoot;
    }

    /// @notice Test only: one registration happened, after which the tree's root is newRoot
    function register(uint256 newRoot) external {
        currentRoot = newRoot;
        nextFreeIndex += 1;
    }

    /// @notice Test only: sets the root and the number of registrations at once
    function setState(uint256 newRoot, uint32 newNextFreeIndex) external {
        currentRoot = newRoot;
        nextFreeIndex = newNextFreeIndex;
    }

    /// @notice Test only: sets maxMembershipRateLimit
    function setMaxMembershipRateLimit(uint32 limit) external {
        maxMembershipRateLimit = limit;
    }
}
