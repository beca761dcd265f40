#pragma once

#include "base/rediserror.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace LockScope::Cli {

// Exit codes from conventions.md: scripts rely on them.
enum ExitCode { ExitDone = 0, ExitNotDone = 1, ExitUsage = 2, ExitConnect = 3, ExitRefused = 4 };

int exitCodeFor(const RedisError &error);

// Human lines on stdout, or one JSON object per line with --json; errors always go to stderr.
class Output
{
public:
    explicit Output(bool json)
        : m_json(json)
    { }
    bool json() const { return m_json; }

    // {"ts", "event", "name", "owner", "count", "ttl_ms"}; text mode prints the human line instead.
    // extra: fields beyond the conventions' set (a fenced lock's "token").
    void event(const QString &event, const QByteArray &name, const QByteArray &owner, qint64 count, qint64 ttlMs,
        const QString &humanLine, const QJsonObject &extra = {}) const;
    void object(const QJsonObject &object, const QString &humanLine) const;
    // A long listing (list --json, --jsonl), one element at a time so the whole document never stands in memory, and
    // flushed once at the end rather than per element. The array is one line of compact JSON.
    // key: the array is the value of that key in an object that closes with closing (its other members, each with
    // its leading comma: ',"partial":true,"why":[...]'); empty key: a bare array.
    void arrayStart(const char *key = nullptr) const;
    void arrayElement(const QByteArray &jsonText, bool first) const; // one compact JSON value
    void arrayEnd(const QByteArray &closing = {}) const;
    void jsonLine(const QJsonObject &object) const;
    void jsonLine(const QByteArray &jsonText) const; // one compact JSON value
    // Later: a long listing's lines reach the terminal in big writes, flushed once by the caller.
    enum class Flush { Now, Later };
    void line(const QString &text, Flush flush = Flush::Now) const;
    void error(const QString &text) const;
    int fail(const RedisError &error) const;

    static QString jsonText(const QByteArray &bytes);

private:
    bool m_json;
};

} // namespace LockScope::Cli
