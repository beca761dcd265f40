#include "clioutput.h"

#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>

#include <cstdio>

namespace LockScope::Cli {

int exitCodeFor(const RedisError &error)
{
    switch (error.kind()) {
    case RedisError::Kind::None:
        return ExitDone;
    case RedisError::Kind::Io:
    case RedisError::Kind::Timeout:
    case RedisError::Kind::Auth:
        return ExitConnect;
    case RedisError::Kind::Permission:
    case RedisError::Kind::ReadOnly:
        return ExitRefused;
    case RedisError::Kind::InvalidArgument:
        return ExitUsage;
    case RedisError::Kind::Reply:
    case RedisError::Kind::Protocol:
    case RedisError::Kind::NotSynced:
    case RedisError::Kind::KindMismatch: // refused before anything was written: the acquire did not happen
        return ExitNotDone;
    }
    return ExitNotDone;
}

QString Output::jsonText(const QByteArray &bytes)
{
    // JSON strings must be text: binary names are written escaped, exactly as they are shown.
    return LockScope::jsonText(bytes);
}

void Output::event(const QString &event, const QByteArray &name, const QByteArray &owner, qint64 count, qint64 ttlMs,
    const QString &humanLine, const QJsonObject &extra) const
{
    QJsonObject o;
    o.insert(QStringLiteral("ts"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("event"), event);
    o.insert(QStringLiteral("name"), jsonText(name));
    o.insert(QStringLiteral("owner"), jsonText(owner));
    o.insert(QStringLiteral("count"), count);
    o.insert(QStringLiteral("ttl_ms"), ttlMs);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    object(o, humanLine);
}

void Output::object(const QJsonObject &object, const QString &humanLine) const
{
    if (m_json)
        std::fputs(QJsonDocument(object).toJson(QJsonDocument::Compact).append('\n').constData(), stdout);
    else
        std::fputs((humanLine + QLatin1Char('\n')).toLocal8Bit().constData(), stdout);
    std::fflush(stdout);
}

void Output::arrayStart(const char *key) const
{
    if (key)
        std::fprintf(stdout, "{\"%s\":", key);
    std::fputc('[', stdout);
}

void Output::arrayElement(const QByteArray &jsonText, bool first) const
{
    if (!first)
        std::fputc(',', stdout);
    std::fwrite(jsonText.constData(), 1, size_t(jsonText.size()), stdout);
}

void Output::arrayEnd(const QByteArray &closing) const
{
    std::fputc(']', stdout);
    if (!closing.isNull()) {
        std::fwrite(closing.constData(), 1, size_t(closing.size()), stdout);
        std::fputc('}', stdout);
    }
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

void Output::jsonLine(const QJsonObject &object) const
{
    std::fputs(QJsonDocument(object).toJson(QJsonDocument::Compact).append('\n').constData(), stdout);
}

void Output::jsonLine(const QByteArray &jsonText) const
{
    std::fwrite(jsonText.constData(), 1, size_t(jsonText.size()), stdout);
    std::fputc('\n', stdout);
}

void Output::line(const QString &text, Flush flush) const
{
    if (!m_json) {
        std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stdout);
        if (flush == Flush::Now)
            std::fflush(stdout);
    }
}

void Output::error(const QString &text) const
{
    std::fputs((QStringLiteral("lockscope-cli: ") + text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
    std::fflush(stderr);
}

int Output::fail(const RedisError &e) const
{
    // A person reads what happened; a script finds the error's code ("kind-mismatch: ...") with --json, and in the
    // exit status either way (issue 47).
    error(m_json ? e.toString() : e.message());
    // The refusal already shows the fingerprint; how to act on it is the CLI's own part.
    if (e.code() == "SSH_HOSTKEY_UNKNOWN" && !e.detail().isEmpty())
        error(QCoreApplication::translate("LockScope::Cli",
            "once the fingerprint is checked, accept it with --ssh-accept-host-key %1 (or connect from a terminal to "
            "be "
            "asked)")
                  .arg(QString::fromLatin1(e.detail())));
    return exitCodeFor(e);
}

} // namespace LockScope::Cli
