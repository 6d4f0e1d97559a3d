/**
 * The data provider Refine is given: each call loads ./data-provider (and with it the registry of
 * every schema) on first use, so the login page's bundle does not carry the registry (≤ 350 KB gzip).
 */
import type { DataProvider } from '@refinedev/core';

let loaded: Promise<DataProvider> | null = null;
const real = (): Promise<DataProvider> => (loaded ??= import('./data-provider').then((m) => m.dataProvider));

/** Starts loading the real provider ahead of its first call (the city area does, on entering). */
export function preloadDataProvider(): void {
  void real();
}

export const dataProvider: DataProvider = {
  getApiUrl: () => '',
  getList: async (params) => (await real()).getList(params),
  getOne: async (params) => (await real()).getOne(params),
  getMany: async (params) => (await real()).getMany!(params),
  create: async (params) => (await real()).create(params),
  update: async (params) => (await real()).update(params),
  deleteOne: async (params) => (await real()).deleteOne(params),
  custom: async (params) => (await real()).custom!(params),
};
