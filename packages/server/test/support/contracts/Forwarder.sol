// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Native value sent on by a contract, for the chain-deposit tests: the customer's address is never the transaction's
/// recipient, so only a trace of the block's calls (an internal transfer) shows the payment. Compiled to
/// Forwarder.json with solc-js 0.8.28 (see the README beside this file); the tests deploy the bytecode.
contract Forwarder {
    /// Sends all the value received on to `to`.
    function forward(address payable to) external payable {
        _send(to, msg.value);
    }

    /// Splits the value received between `a` and `b` (half each, the odd wei to `b`): two internal transfers in one transaction.
    function split(address payable a, address payable b) external payable {
        _send(a, msg.value / 2);
        _send(b, msg.value - msg.value / 2);
    }

    /// Sends to `to` in a call that then reverts and is caught: the transaction succeeds, the transfer is undone and the
    /// value stays here. A watcher must not count it.
    function forwardUndone(address payable to) external payable {
        try this.sendAndFail(to, msg.value) {} catch {}
    }

    function sendAndFail(address payable to, uint256 value) external {
        require(msg.sender == address(this), "only self");
        _send(to, value);
        revert("undone");
    }

    function _send(address payable to, uint256 value) private {
        (bool ok, ) = to.call{value: value}("");
        require(ok, "send failed");
    }
}
