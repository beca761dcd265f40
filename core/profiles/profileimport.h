#pragma once

#include "profiles/connectionprofile.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace LockScope {

// A connection read from another Redis GUI's saved or exported connections. The passwords travel beside the profile,
// never in it: the caller puts them in the keychain or drops them.
struct ImportedProfile
{
    ConnectionProfile profile;
    QByteArray password; // Redis's
    QByteArray sshPassword;
    QStringList notes; // what could not be carried over, said per profile
};

struct ProfileImport
{
    QString format; // "RESP.app", "Another Redis Desktop Manager", "Tiny RDM", "redis:// URLs"
    QList<ImportedProfile> profiles;
    QStringList skipped; // entries that were not connections LockScope can make, with why
    QString error; // the file could not be read as any of the formats (nothing imported)
};

// Reads a file of any of the formats, told apart by their contents:
// - RESP.app / Redis Desktop Manager: connections.json (export or ~/.rdm/connections.json), a JSON array with groups;
// - Another Redis Desktop Manager: connections.ano (base64 of JSON; the JSON itself is accepted too);
// - Tiny RDM: connections.yaml (~/.config/TinyRDM) or the zip its export writes;
// - a list of redis:// or rediss:// URLs, one per line ("NAME URL" names it; # starts a comment).
ProfileImport importProfiles(const QString &fileName);
ProfileImport importProfilesFromData(const QByteArray &data);

// Adds the imported profiles to profiles (a name already taken gets " (2)", " (3)"...), and their passwords to the
// secret store when there is one that works; the caller saves the profiles. Returns what to tell the person: how many,
// from which program, which passwords were kept or dropped, and what was skipped or could not be carried over.
QString addImported(const ProfileImport &import, QList<ConnectionProfile> *profiles, SecretStore *secrets);

// The readers, for the formats' own tests.
ProfileImport importRespApp(const QByteArray &json);
ProfileImport importAnotherRdm(const QByteArray &data);
ProfileImport importTinyRdm(const QByteArray &yaml);
ProfileImport importUrlList(const QByteArray &text);

namespace ImportDetail {
// The profile's URL from its parts (the password goes to *password, not into the URL).
QString url(const QString &host, int port, bool tls, const QString &user, int db = 0);
// "group/name", and names made unique within the import.
void finish(ProfileImport *import);
} // namespace ImportDetail

} // namespace LockScope
