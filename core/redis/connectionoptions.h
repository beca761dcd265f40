#pragma once

#include "rediserror.h"

#include <QByteArray>
#include <QString>

namespace LockScope {

struct ConnectionOptions
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QByteArray user; // empty: the default user
    QByteArray password; // never logged, never part of toDisplayUrl()
    int db = 0;

    bool tls = false;
    QString tlsCaFile;
    QString tlsCertFile;
    QString tlsKeyFile;
    QString tlsServerName; // SNI and name checked against the certificate; default: host
    bool tlsInsecure = false; // verification is on unless asked for

    int connectTimeoutMs = 5000;
    int commandTimeoutMs = 5000; // 0: no deadline
    int reconnectInitialDelayMs = 100;
    int reconnectMaxDelayMs = 5000;
    bool autoReconnect = true;

    // Refuse every write before it reaches the wire.
    bool readOnly = false;

    // Parses redis://[user[:password]@]host[:port][/db] and rediss://...; percent-encoded user and password.
    static ConnectionOptions fromUrl(const QString &url, RedisError *error = nullptr);
    // The URL with the password removed, for titles, logs and audit records.
    QString toDisplayUrl() const;
};

} // namespace LockScope
