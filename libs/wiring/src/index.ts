export * from './adapters';
export * from './ports-module';
export * from './service-settings';
export * from './dispatch/broker-providers';
export * from './dispatch/bullmq';
export * from './dispatch/rabbitmq';
export * from './transport';
export * from './gateway-offloading';
