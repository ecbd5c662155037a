import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { describeLocation } from './remote-directory.ts';
import { fileTooLargeMessage } from './limits.ts';

describe('IMPORT_LOCATION_* configuration', () => {
  it('is off unless a URL is set, and reads the key file when one is named', () => {
    expect(loadConfig({}).importLocation).toBeUndefined();
    const key = path.join(mkdtempSync(path.join(tmpdir(), 'sift-key-')), 'id_ed25519');
    writeFileSync(key, 'KEY TEXT');
    const fingerprint = `SHA256:${'a'.repeat(43)}`;
    expect(
      loadConfig({
        IMPORT_LOCATION_URL: 'sftp://sift@files.example.org:2222/exports',
        IMPORT_LOCATION_PRIVATE_KEY_FILE: key,
        IMPORT_LOCATION_HOST_KEY: fingerprint,
      }).importLocation,
    ).toEqual({
      url: 'sftp://sift@files.example.org:2222/exports',
      password: undefined,
      privateKey: 'KEY TEXT',
      hostKeyFingerprint: fingerprint,
    });
  });

  it('refuses a password in the URL, another scheme, and a malformed host key, naming the variable', () => {
    expect(() => loadConfig({ IMPORT_LOCATION_URL: 'ftp://sift:secret@files.example.org/' })).toThrow(
      /IMPORT_LOCATION_URL.*must not carry a password/,
    );
    expect(() => loadConfig({ IMPORT_LOCATION_URL: 'https://files.example.org/' })).toThrow(
      /IMPORT_LOCATION_URL/,
    );
    expect(() =>
      loadConfig({ IMPORT_LOCATION_URL: 'sftp://files.example.org/', IMPORT_LOCATION_HOST_KEY: 'ab:cd' }),
    ).toThrow(/IMPORT_LOCATION_HOST_KEY/);
  });
});

describe('what people are shown of the location', () => {
  it('names scheme, host, port and directory, never credentials', () => {
    expect(describeLocation('sftp://sift@files.example.org:2222/data/wos%20exports')).toBe(
      'sftp://files.example.org:2222/data/wos exports',
    );
    expect(describeLocation('ftp://files.example.org')).toBe('ftp://files.example.org/');
  });

  // Fingerprints are held to ssh-keygen's by the SFTP tests (test/location-import.int.test.ts).
  it('says size limits in MB', () => {
    expect(fileTooLargeMessage(500 * 1024 * 1024)).toBe('File too large. Maximum size is 500MB.');
    expect(fileTooLargeMessage(256 * 1024)).toBe('File too large. Maximum size is 0.25MB.');
  });
});
