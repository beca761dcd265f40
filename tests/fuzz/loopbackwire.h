#pragma once

#include "fuzzinput.h"

namespace LockScope::Fuzz {

// The fuzz bytes as a server's answers to a real RedisConnection, over a loopback socket in this process: every
// issued command's callback must run exactly once (a reply or a typed error) by the time the connection is closed.
void runConnection(FuzzInput &in);
// The same for RedisSubscriber: acknowledgements and messages, each confirmation callback at most once.
void runSubscriber(FuzzInput &in);

} // namespace LockScope::Fuzz
