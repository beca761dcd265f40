#include "profiles/profileimport.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <zip.h>

namespace LockScope {

namespace {
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("LockScope", text, disambiguation, n);
}

// Tiny RDM's export: a zip whose one entry is connections.yaml.
bool unzipEntry(const QByteArray &data, const char *entry, QByteArray *out, QString *error)
{
    zip_error_t zipError;
    zip_error_init(&zipError);
    zip_source_t *source = zip_source_buffer_create(data.constData(), zip_uint64_t(data.size()), 0, &zipError);
    zip_t *archive = source ? zip_open_from_source(source, ZIP_RDONLY, &zipError) : nullptr;
    if (!archive) {
        *error = tr("not a readable zip file: %1").arg(QString::fromUtf8(zip_error_strerror(&zipError)));
        if (source)
            zip_source_free(source);
        zip_error_fini(&zipError);
        return false;
    }
    zip_stat_t stat;
    zip_file_t *file = nullptr;
    if (zip_stat(archive, entry, 0, &stat) == 0 && (stat.valid & ZIP_STAT_SIZE) && stat.size < 64 * 1024 * 1024)
        file = zip_fopen(archive, entry, 0);
    if (!file) {
        *error = tr("the zip holds no %1").arg(QLatin1String(entry));
        zip_close(archive);
        zip_error_fini(&zipError);
        return false;
    }
    out->resize(qsizetype(stat.size));
    const zip_int64_t n = zip_fread(file, out->data(), stat.size);
    zip_fclose(file);
    zip_close(archive);
    zip_error_fini(&zipError);
    if (n != zip_int64_t(stat.size)) {
        *error = tr("cannot read %1 from the zip").arg(QLatin1String(entry));
        return false;
    }
    return true;
}
} // namespace

QString ImportDetail::url(const QString &host, int port, bool tls, const QString &user, int db)
{
    QUrl url;
    url.setScheme(tls ? QStringLiteral("rediss") : QStringLiteral("redis"));
    url.setHost(host.trimmed().isEmpty() ? QStringLiteral("127.0.0.1") : host.trimmed());
    url.setPort(port > 0 && port < 65536 ? port : 6379);
    if (!user.isEmpty())
        url.setUserName(user);
    url.setPath(QStringLiteral("/") + QString::number(qMax(0, db)));
    return url.toString(QUrl::EncodeSpaces);
}

void ImportDetail::finish(ProfileImport *import)
{
    // A connection whose host is no host name (bytes that are not UTF-8, spaces, a bracket) has no URL to connect to
    // (found by fuzz_import): skipped and said, rather than a nameless profile that can never connect.
    for (qsizetype i = import->profiles.size() - 1; i >= 0; --i) {
        RedisError error;
        ConnectionOptions::fromUrl(import->profiles.at(i).profile.url, &error);
        if (!error.isError())
            continue;
        const QString name = import->profiles.at(i).profile.name;
        import->skipped.prepend(tr("%1: no host name LockScope can connect to")
                                    .arg(name.trimmed().isEmpty() ? tr("a connection without a name") : name));
        import->profiles.removeAt(i);
    }
    // Two connections of one name (in two groups, or twice in a list) must stay two profiles.
    QSet<QString> used;
    for (ImportedProfile &p : import->profiles) {
        QString &name = p.profile.name;
        if (name.trimmed().isEmpty())
            name = QUrl(p.profile.url).host();
        const QString base = name;
        for (int n = 2; used.contains(name); ++n)
            name = QStringLiteral("%1 (%2)").arg(base).arg(n);
        used.insert(name);
    }
}

ProfileImport importProfilesFromData(const QByteArray &data)
{
    const QByteArray trimmed = data.trimmed();
    if (data.startsWith("PK\x03\x04")) {
        QByteArray yaml;
        QString error;
        if (!unzipEntry(data, "connections.yaml", &yaml, &error)) {
            ProfileImport failed;
            failed.error = error;
            return failed;
        }
        return importTinyRdm(yaml);
    }
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
        QJsonParseError parse;
        const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &parse);
        if (parse.error == QJsonParseError::NoError) {
            // RESP.app writes its own keys (auth, ssh_host, timeout_connect); ARDM's bundle is an object, its old
            // export an array of objects with a "key" or "sshOptions".
            const bool ardm = doc.isObject()
                || (doc.isArray() && !doc.array().isEmpty()
                    && (doc.array().first().toObject().contains(QStringLiteral("key"))
                        || doc.array().first().toObject().contains(QStringLiteral("separator"))));
            return ardm ? importAnotherRdm(trimmed) : importRespApp(trimmed);
        }
    }
    if (trimmed.startsWith("redis://") || trimmed.startsWith("rediss://") || trimmed.startsWith('#')
        || trimmed.contains("\nredis://") || trimmed.contains(" redis://") || trimmed.contains(" rediss://")
        || trimmed.contains("\nrediss://"))
        return importUrlList(data);
    if (trimmed.startsWith('-') || trimmed.startsWith("---"))
        return importTinyRdm(data);
    // ARDM's export is one line of base64.
    const QByteArray decoded = QByteArray::fromBase64(trimmed, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded.isEmpty() && (decoded.startsWith('{') || decoded.startsWith('[')))
        return importAnotherRdm(trimmed);
    ProfileImport unknown;
    unknown.error = tr("not a connections file of RESP.app, Another Redis Desktop Manager or Tiny RDM, nor a list of "
                       "redis:// URLs");
    return unknown;
}

ProfileImport importProfiles(const QString &fileName)
{
    QFile file(fileName);
    ProfileImport failed;
    if (!file.open(QIODevice::ReadOnly)) {
        failed.error = tr("cannot read %1: %2").arg(fileName, file.errorString());
        return failed;
    }
    // Connection lists are small: a huge file is not one, and is not read whole into memory.
    if (file.size() > 16 * 1024 * 1024) {
        failed.error = tr("%1 is too large to be a list of connections").arg(fileName);
        return failed;
    }
    return importProfilesFromData(file.readAll());
}

QString addImported(const ProfileImport &import, QList<ConnectionProfile> *profiles, SecretStore *secrets)
{
    if (!import.error.isEmpty())
        return tr("Nothing imported: %1").arg(import.error);
    QSet<QString> used;
    for (const ConnectionProfile &p : std::as_const(*profiles))
        used.insert(p.name);
    const bool keychain = secrets && secrets->available();
    int passwords = 0;
    int dropped = 0;
    QStringList notes;
    for (const ImportedProfile &imported : import.profiles) {
        ConnectionProfile profile = imported.profile;
        const QString base = profile.name;
        for (int n = 2; used.contains(profile.name); ++n)
            profile.name = QStringLiteral("%1 (%2)").arg(base).arg(n);
        used.insert(profile.name);
        // Never the settings file: the keychain, or nowhere (then asked for when connecting).
        for (const auto &[secret, key] : { std::pair { imported.password, profile.name },
                 std::pair { imported.sshPassword, ConnectionProfile::sshSecretName(profile.name) } }) {
            if (secret.isEmpty())
                continue;
            if (keychain) {
                secrets->write(key, secret);
                ++passwords;
            } else {
                ++dropped;
            }
        }
        for (const QString &note : imported.notes)
            notes << QStringLiteral("%1: %2").arg(profile.name, note);
        *profiles << profile;
    }
    QString summary = tr("Imported %n profile(s) from %1.", nullptr, int(import.profiles.size())).arg(import.format);
    if (passwords > 0)
        summary += QLatin1Char(' ') + tr("%n password(s) went to the system keychain.", nullptr, passwords);
    if (dropped > 0)
        summary += QLatin1Char(' ')
            + tr("%n password(s) were not kept: no keychain answers here, so they are asked for when connecting.",
                nullptr, dropped);
    for (const QString &skipped : import.skipped)
        notes << tr("skipped %1").arg(skipped);
    if (!notes.isEmpty())
        summary += QLatin1Char('\n') + notes.join(QLatin1Char('\n'));
    return summary;
}

ProfileImport importUrlList(const QByteArray &text)
{
    ProfileImport import;
    import.format = QStringLiteral("redis:// URLs");
    int lineNumber = 0;
    for (const QByteArray &raw : text.split('\n')) {
        ++lineNumber;
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        QString name;
        QString url = line;
        const int space = line.indexOf(QRegularExpression(QStringLiteral("\\s")));
        if (space > 0 && !line.startsWith(QLatin1String("redis://")) && !line.startsWith(QLatin1String("rediss://"))) {
            name = line.left(space);
            url = line.mid(space).trimmed();
        }
        ImportedProfile p;
        RedisError error;
        p.profile = ConnectionProfile::fromUrl(url, &p.password, &error);
        if (error.isError()) {
            import.skipped << tr("line %1: %2").arg(lineNumber).arg(error.message());
            continue;
        }
        if (!name.isEmpty())
            p.profile.name = name;
        import.profiles << p;
    }
    ImportDetail::finish(&import);
    return import;
}

} // namespace LockScope
