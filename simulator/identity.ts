/**
 * Who the simulated device says it is: versions and per-service product data. Shared by
 * every API dialect (the released 1.0 descriptor has the same fields as 0.9).
 */
import type { Service } from './facts';

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

export const v = (major: number, minor: number, patch: number): Version => ({ major, minor, patch });

/** Versions both dialects report alike; the service version is the dialect's own. */
export const SOFTWARE = {
  /** drv-io and drv-power are 1.0.0; the services need major 1 (real §4). */
  moduleDriver: v(1, 0, 0),
  /** The drivers need at least 1.3.0 (real §4). */
  kernelDriver: v(1, 3, 0),
  sdbp: v(1, 0, 0),
};

export interface Product {
  vendorProductId: string;
  productName: string;
  fw: { stability: 'A' | 'B' | 'S'; version: Version };
  hw: Version;
  /** mW; power-management uses them as mW (real §3.2). */
  maxPowerMw: { '12v': number; '5v0': number; '3v3': number };
  maxFrameSize: number;
  /** kHz */
  maxSclkSpeed: number;
}

export const VENDOR = 'Modular Device Simulator';

/**
 * A module's product data, in the order of a row of PRODUCTS. Every simulated module runs a
 * stable firmware release (stability `S`).
 */
function product(
  vendorProductId: string,
  productName: string,
  fw: Version,
  hw: Version,
  maxPowerMw: Product['maxPowerMw'],
  maxFrameSize: number,
  maxSclkSpeed: number,
): Product {
  return { vendorProductId, productName, fw: { stability: 'S', version: fw }, hw, maxPowerMw, maxFrameSize, maxSclkSpeed };
}

/** A row per service: vendor:product id, name, firmware, hardware, max power (mW), max frame size, max SCLK speed (kHz). */
export const PRODUCTS: Readonly<Record<Service, Product>> = {
  io: product('0x1A2B:0x0101', 'IO Module 6 Pin', v(1, 4, 2), v(2, 1, 0), { '12v': 6000, '5v0': 3000, '3v3': 450 }, 512, 10000),
  bmc: product('0x1A2B:0x0001', 'Base Management Controller', v(1, 2, 0), v(1, 3, 0), { '12v': 0, '5v0': 0, '3v3': 900 }, 512, 10000),
  power: product('0x1A2B:0x0201', 'Power Supply Module 75W', v(1, 1, 5), v(1, 0, 2), { '12v': 0, '5v0': 0, '3v3': 350 }, 256, 8000),
};

/** Serial per service and slot, stable across restarts so clients can recognise a module. */
export function serialCode(service: Service, slot: number, prefix = 'SIM'): string {
  return `${prefix}-${service.toUpperCase()}-${String(slot).padStart(4, '0')}`;
}
