// The low-confidence warning before release and force-release (issue 15 point 10): a lock that only its shape
// vouches for may be application data, and the person acting on it should know before it is changed.
#include "commands.h"

#include "kinds/lockscanner.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <memory>

namespace LockScope::Cli {

void Command::run()
{
    // JSON mode is for scripts, which read the confidence from show; a lock name is needed to read anything.
    // A read-only connection refuses the action before reading anything: nothing to warn about.
    if (badHexName())
        return;
    if (!warnsOnLowConfidence() || m_out.json() || m_connection.readOnly || positional(1).isEmpty())
        start();
    else
        warnOnLowConfidenceThenStart();
}

void Command::warnOnLowConfidenceThenStart()
{
    const QByteArray name = lockName();
    ConnectionOptions options = m_connection;
    options.readOnly = true; // a read, like show's, whatever the command will write
    auto *connection = new RedisRouter(options, this);
    LockScanner::Options scan;
    scan.stringPatterns = stringLockPatterns();
    auto *scanner = new LockScanner(connection, scan, this);
    auto found = std::make_shared<QList<LockInfo>>();
    connect(scanner, &LockScanner::locksFound, this, [found](const QList<LockInfo> &locks) { *found << locks; });
    connect(scanner, &LockScanner::finished, this, [this, found, connection, scanner](const RedisError &, int) {
        // A read that failed says nothing: the action reports its own errors.
        const QString text = found->isEmpty() ? QString() : lowConfidenceText(found->first());
        if (!text.isEmpty())
            m_out.error(tr("warning: %1: %2").arg(escapeBytes(found->first().name, 200), text));
        scanner->deleteLater();
        connection->deleteLater();
        if (!m_finished)
            start();
    });
    scanner->readKeys({ name });
}

} // namespace LockScope::Cli
