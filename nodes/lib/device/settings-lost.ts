/**
 * An answer that proves the module lost what the package set on it: an output refused for
 * a missing power configuration (spec io rule 1; the released services' 400 "Power config
 * missing", real §3.2 table C), which only a reset of the module can cause once the package
 * had set one. The config node puts the settings back; the refused msg's error says so.
 */
import { DeviceError } from '../base/errors';
import { t } from '../base/i18n';

export function settingsGone(error: unknown): error is DeviceError {
  return error instanceof DeviceError && error.statusCode === 400 && (error.deviceMessage ?? '').toLowerCase().includes('power config missing');
}

/** The error for the refused msg: the device's, plus "being applied again" when they are. */
export function lostSettings(error: DeviceError, report: { settingsLost(cause: string): boolean }): DeviceError {
  const cause = error.deviceMessage ?? String(error.statusCode);
  if (!report.settingsLost(cause)) return error;
  return new DeviceError(`${error.message}: ${t('common.settingsLost', { cause })}`, {
    code: error.code,
    statusCode: error.statusCode,
    deviceMessage: error.deviceMessage,
    method: error.method,
    path: error.path,
    detail: { settingsLost: true },
  });
}
