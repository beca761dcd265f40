#include "ssh/sshoptions.h"

#include <QCoreApplication>

namespace LockScope {

namespace {
// The context lupdate gives the tr() calls below (it takes this for the usual tr()): keep them equal, or the
// translations never match.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::SshOptions", text);
}
} // namespace

QString SshOptions::display() const
{
    if (!isSet())
        return {};
    QString text = user.isEmpty() ? QString() : user + QLatin1Char('@');
    text += host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (port != 22)
        text += QLatin1Char(':') + QString::number(port);
    return text;
}

QString SshOptions::sessionKey() const
{
    // The accepted key too: a session refused for an unknown key must not be reused once the key is accepted.
    return display() + QLatin1Char('\n') + keyFile + QLatin1Char('\n') + knownHostsFile + QLatin1Char('\n')
        + QString::fromLatin1(acceptHostKey);
}

SshOptions SshOptions::parseTarget(const QString &text, RedisError *error)
{
    const auto fail = [&](const QString &message) {
        if (error)
            *error = RedisError(RedisError::Kind::InvalidArgument, message);
        return SshOptions {};
    };
    SshOptions options;
    QString rest = text.trimmed();
    const int at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        options.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (options.user.isEmpty())
            return fail(tr("the SSH user before \"@\" is empty in \"%1\"").arg(text));
    }
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const int close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return fail(tr("unclosed \"[\" in the SSH host \"%1\"").arg(text));
        options.host = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return fail(tr("unexpected \"%1\" after the SSH host").arg(after));
            portText = after.mid(1);
        }
    } else {
        const int colon = rest.indexOf(QLatin1Char(':'));
        if (colon >= 0 && rest.indexOf(QLatin1Char(':'), colon + 1) < 0) {
            options.host = rest.left(colon);
            portText = rest.mid(colon + 1);
        } else {
            options.host = rest; // a bare IPv6 address has several colons and no port
        }
    }
    if (options.host.isEmpty())
        return fail(tr("no SSH host in \"%1\" (expected USER@HOST[:PORT])").arg(text));
    for (const QChar c : options.host) {
        if (c.isSpace() || c.category() == QChar::Other_Control || c == QLatin1Char('/') || c == QLatin1Char('@')
            || c == QLatin1Char('[') || c == QLatin1Char(']'))
            return fail(tr("\"%1\" is not a host name").arg(options.host));
    }
    if (!portText.isNull()) {
        bool ok = false;
        const int port = portText.toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return fail(tr("SSH port \"%1\" is not a number from 1 to 65535").arg(portText));
        options.port = quint16(port);
    }
    if (error)
        *error = {};
    return options;
}

} // namespace LockScope
