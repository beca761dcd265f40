#pragma once

// lockscope-cli's recorder and the questions a recording answers, as the recording tests drive them: a recorder
// started on a prefix and waited for until it follows changes, and the answers read as JSON lines.
#include "clirun.h"
#include "redisserver.h"
#include "statsworkload.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace LockScope::Test {

inline QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> all;
    for (const QByteArray &line : out.split('\n'))
        if (!line.trimmed().isEmpty())
            all << QJsonDocument::fromJson(line).object();
    return all;
}

inline QStringList eventsOf(const QList<QJsonObject> &history)
{
    QStringList types;
    for (const QJsonObject &o : history)
        types << o.value(QStringLiteral("event")).toString();
    return types;
}

class RecordingCli
{
public:
    RecordingCli(const RedisServer &server, const QTemporaryDir &dir)
        : m_server(server)
        , m_dir(dir)
    { }

    // record on the locks under prefix into db, once its monitor follows changes.
    void startRecorder(QProcess &p, const QString &db, const QByteArray &prefix) const
    {
        startCli(p,
            { QStringLiteral("--json"), QStringLiteral("record"), QStringLiteral("--db"), db,
                QStringLiteral("--pattern"), QString::fromUtf8(prefix + "*"), QStringLiteral("--url"), m_server.url() },
            m_dir);
        waitForStatus(p, "watching");
    }
    // A question's JSON lines (empty when it did not answer).
    QList<QJsonObject> ask(const QStringList &args) const
    {
        const CliRun r = runCli(args + QStringList { QStringLiteral("--json") }, m_dir);
        return r.normal() ? jsonLines(r.out) : QList<QJsonObject>();
    }
    QList<QJsonObject> history(const QString &db, const QByteArray &name) const
    {
        return ask({ QStringLiteral("history"), QString::fromUtf8(name), QStringLiteral("--db"), db });
    }
    // Waits until the recording has n events of name (written: readable from the file by another process).
    bool recorded(const QString &db, const QByteArray &name, int n) const
    {
        [&] { QTRY_VERIFY_WITH_TIMEOUT(history(db, name).size() >= n, 30000); }();
        return !QTest::currentTestFailed();
    }
    // Waits until the recording has an event of that type on name.
    bool recordedEvent(const QString &db, const QByteArray &name, const QString &type) const
    {
        [&] { QTRY_VERIFY_WITH_TIMEOUT(eventsOf(history(db, name)).contains(type), 30000); }();
        return !QTest::currentTestFailed();
    }

private:
    const RedisServer &m_server;
    const QTemporaryDir &m_dir;
};

} // namespace LockScope::Test
