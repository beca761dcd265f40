#pragma once

#include "redis/connectionoptions.h"

class QSslSocket;

namespace LockScope {

// Applies the CA, client certificate and key, and verification mode to the socket; false with a clear error
// when a file is missing or unreadable, before any byte goes on the wire.
bool configureTls(QSslSocket *socket, const ConnectionOptions &options, RedisError *error);

} // namespace LockScope
