// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.37;

/// @title HCS audit log anchor
/// @notice Records checkpoints of an HCS audit log (its RFC 9162 root hash, tree size and UTC day) as events, so
/// that anyone can later show that the checkpoint existed when its block was finalized (docs/audit.md).
/// @dev Only the deployer may anchor: an Anchored event emitted by this address is then the log operator's
/// statement, and nobody else can write anchors under the contract's name. The owner is fixed for the contract's
/// life; an operator with a new key deploys a new contract (anchors under the old one stay valid).
contract HcsAuditAnchor {
    /// @notice The account allowed to anchor: the deployer.
    address public immutable owner;

    /// @notice One checkpoint: root hash (indexed, so an anchor can be found by root), tree size, UTC day as YYYYMMDD.
    event Anchored(bytes32 indexed root, uint64 treeSize, uint64 day);

    /// @notice Raised when anyone but the owner calls anchor.
    error NotOwner();

    constructor() {
        owner = msg.sender;
    }

    /// @notice Emits Anchored for one checkpoint of the log.
    function anchor(bytes32 root, uint64 treeSize, uint64 day) external {
        if (msg.sender != owner) revert NotOwner();
        emit Anchored(root, treeSize, day);
    }
}
