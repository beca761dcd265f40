#include "inspectcommands.h"

#include "cliwords.h"
#include "holderlines.h"

#include "kinds/keyglob.h"
#include "kinds/lockatname.h"
#include "kinds/locklayouts.h"
#include "kinds/lockscanner.h"
#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimer>

#include <memory>

namespace LockScope::Cli {

void ShowCommand::start()
{
    const QByteArray name = lockName();
    if (name.isEmpty()) {
        m_out.error(tr("show needs a lock name"));
        finish(ExitUsage);
        return;
    }
    int observeMs = 0;
    if (m_parser.isSet(QStringLiteral("observe"))) {
        bool ok = false;
        observeMs = m_parser.value(QStringLiteral("observe")).toInt(&ok);
        if (!ok || observeMs < 1 || observeMs > 3600 * 1000) {
            m_out.error(tr("--observe takes milliseconds (1 to 3600000)"));
            finish(ExitUsage);
            return;
        }
        observe(name, observeMs);
        return;
    }
    auto *connection = new RedisRouter(readOnly(m_connection), this);
    LockScanner::Options options;
    options.stringPatterns = stringLockPatterns();
    auto *scanner = new LockScanner(connection, options, this);
    auto found = std::make_shared<QList<LockInfo>>();
    connect(scanner, &LockScanner::locksFound, this, [found](const QList<LockInfo> &locks) { *found << locks; });
    connect(scanner, &LockScanner::finished, this, [this, name, found, connection](const RedisError &error, int) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        if (found->isEmpty()) {
            notALock(connection, name);
            return;
        }
        // One read: the verdict rests on the holder's connections and process, never on renewals nobody watched.
        HolderWatch *watch = holderWatch(connection);
        watch->readClients([this, found, watch] {
            watch->readHeartbeats(found->first().holders, [this, found, watch] {
                watch->readQueues(*found, [this, found, watch] { print(watch->withQueue(found->first()), *watch); });
            });
        });
    });
    scanner->readKeys({ name });
}

void ShowCommand::observe(const QByteArray &name, int observeMs)
{
    LockMonitor::Options options;
    options.pattern = globEscape(name);
    options.stringPatterns = stringLockPatterns();
    auto *monitor = new LockMonitor(readOnly(m_connection), options, this);
    HolderWatch *watch = holderWatch(monitor->connection());
    watch->setMonitor(monitor);
    connect(monitor, &LockMonitor::snapshotFinished, this, [this](const RedisError &error, int) {
        if (error.isError())
            finish(m_out.fail(error));
    });
    if (!m_out.json())
        m_out.line(tr("watching %1 for %2 ms…").arg(escapeBytes(name, 200)).arg(observeMs));
    QTimer::singleShot(observeMs, this, [this, monitor, watch, name] {
        // Whatever the server did before now is judged before the answer.
        monitor->settle([this, monitor, watch, name] {
            const LockRecord *record = monitor->record(name);
            if (!record || !record->present) {
                notALock(monitor->connection(), name);
                return;
            }
            watch->readClients([this, monitor, watch, name] {
                const LockRecord *r = monitor->record(name);
                if (!r || !r->present) {
                    notALock(monitor->connection(), name);
                    return;
                }
                watch->readHeartbeats(r->info.holders, [this, monitor, watch, name] {
                    const LockRecord *now = monitor->record(name);
                    if (!now || !now->present) {
                        notALock(monitor->connection(), name);
                        return;
                    }
                    watch->readQueues({ now->info }, [this, monitor, watch, name] {
                        if (const LockRecord *last = monitor->record(name); last && last->present)
                            print(watch->withQueue(last->info), *watch);
                        else
                            notALock(monitor->connection(), name);
                    });
                });
            });
        });
    });
    monitor->start();
}

void ShowCommand::notALock(RedisRouter *connection, const QByteArray &name)
{
    // Say what is there instead: nothing, or a value of another type (the cause of WRONGTYPE errors), in the words
    // every write by name refuses it with.
    LockAtName::explainNotALock(connection, name, stringLockPatterns(), [this](const QString &why) {
        m_out.error(why);
        finish(ExitNotDone);
    });
}

void ShowCommand::print(const LockInfo &l, const HolderWatch &watch)
{
    QJsonObject o = lockJson(l, QDateTime::currentMSecsSinceEpoch(), watch.factsSource());
    const QStringList partial = watch.partial();
    if (!partial.isEmpty()) {
        o.insert(QStringLiteral("partial"), true);
        o.insert(QStringLiteral("why"), QJsonArray::fromStringList(partial));
    }
    QStringList lines { tr("%1: %2%3, confidence %4, ttl %5")
                            .arg(escapeBytes(l.name, 200), kindWord(l.kind),
                                l.mode.isEmpty() ? QString() : tr(" in %1 mode").arg(modeWord(l.mode)),
                                confidenceWord(l.confidence), ttlText(l.ttlMs)) };
    if (!l.library.isEmpty() && l.library != "redisson" && l.library != "string")
        lines << tr("  library: %1").arg(QString::fromLatin1(l.library));
    for (const LockHolder &h : l.holders) {
        QString details = h.deadReader ? tr(", dead reader") : QString();
        if (!h.host.isEmpty())
            details += tr(", host %1").arg(escapeBytes(h.host, 120));
        if (h.pid > 0)
            details += tr(", pid %1").arg(h.pid);
        if (!h.node.isEmpty())
            details += tr(", node %1").arg(QString::fromLatin1(h.node));
        if (h.sinceMs > 0)
            details
                += tr(", since %1").arg(QDateTime::fromMSecsSinceEpoch(h.sinceMs, Qt::UTC).toString(Qt::ISODateWithMs));
        if (h.expiresMs > 0)
            details
                += (h.expiresMs <= QDateTime::currentMSecsSinceEpoch() ? tr(", expired at %1") : tr(", expires at %1"))
                       .arg(QDateTime::fromMSecsSinceEpoch(h.expiresMs, Qt::UTC).toString(Qt::ISODateWithMs));
        lines << tr("  holder %1 (count %2)%3").arg(escapeBytes(h.owner, 120)).arg(h.count).arg(details);
        lines << holderFactLines(watch, l, h);
    }
    if (l.counter >= 0)
        lines << tr("  %1").arg(LockLayouts::forRecord(l.kind).counterText(l.counter));
    for (const auto &[owner, deadline] : l.queue)
        lines << tr("  queued %1").arg(QString::fromUtf8(owner));
    if (LockLayouts::forRecord(l.kind).capabilities().wakeChannel) // without one nobody can listen
        lines << tr("  waiters listening: %1").arg(l.waiters < 0 ? QStringLiteral("?") : QString::number(l.waiters));
    for (const QString &e : l.evidence)
        lines << tr("  evidence: %1").arg(e);
    for (const QString &w : l.warnings)
        lines << tr("  warning: %1").arg(w);
    for (const QString &p : partial)
        lines << tr("  partial: %1").arg(p);
    m_out.object(o, lines.join(QLatin1Char('\n')));
    finish(ExitDone);
}

} // namespace LockScope::Cli
