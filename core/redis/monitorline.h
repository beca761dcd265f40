#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope {

// One line MONITOR sends: `1700000000.123456 [0 127.0.0.1:5555] "SET" "lock:a" "tok" "NX"`. The server writes it
// with its own clock, the database and the client that ran the command ("lua" for a command a script ran;
// "unix:/path" over a Unix socket; "[::1]:5555" over IPv6), then every argument quoted as sdscatrepr quotes it.
struct MonitorLine
{
    qint64 timestampUs = 0; // epoch microseconds, the server's clock
    int db = -1;
    QByteArray client; // "127.0.0.1:5555", "lua", "unix:/run/redis.sock"
    QList<QByteArray> argv; // unescaped: the bytes the client sent

    bool fromScript() const { return client == "lua"; }
};

// Parses one MONITOR line; false for anything that is not one (a status such as "OK", a line cut short, an argument
// whose quoting does not close). A line read back gives exactly the client and arguments the server quoted.
bool parseMonitorLine(const QByteArray &line, MonitorLine *out);

} // namespace LockScope
