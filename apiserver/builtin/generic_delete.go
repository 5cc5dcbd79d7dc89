package builtin

// The kinds whose DELETE is the generic pipeline's alone
// (apiserver.GenericDeleter): a deletecollection, and so a namespace's
// teardown, removes their objects without finalizers together, without
// decoding them. Pods (graceful), Services (allocations) and
// CustomResourceDefinitions (their clean-up) are not among them.
// TestGenericDeletersOverrideNoDeleteHook holds this list to the
// strategies' code.

func (apiServiceStrategy) GenericDelete()                       {}
func (bindingStrategy) GenericDelete()                          {}
func (configMapStrategy) GenericDelete()                        {}
func (controllerRevisionStrategy) GenericDelete()               {}
func (cronJobStrategy) GenericDelete()                          {}
func (csiDriverStrategy) GenericDelete()                        {}
func (csiNodeStrategy) GenericDelete()                          {}
func (csrStrategy) GenericDelete()                              {}
func (daemonSetStrategy) GenericDelete()                        {}
func (deploymentStrategy) GenericDelete()                       {}
func (endpointSliceStrategy) GenericDelete()                    {}
func (endpointsStrategy) GenericDelete()                        {}
func (eventStrategy) GenericDelete()                            {}
func (eventsEventStrategy) GenericDelete()                      {}
func (flowSchemaStrategy) GenericDelete()                       {}
func (hpaStrategy) GenericDelete()                              {}
func (hpaV1Strategy) GenericDelete()                            {}
func (ingressClassStrategy) GenericDelete()                     {}
func (ingressStrategy) GenericDelete()                          {}
func (ipAddressStrategy) GenericDelete()                        {}
func (jobStrategy) GenericDelete()                              {}
func (leaseStrategy) GenericDelete()                            {}
func (limitRangeStrategy) GenericDelete()                       {}
func (networkPolicyStrategy) GenericDelete()                    {}
func (nodeStrategy) GenericDelete()                             {}
func (persistentVolumeClaimStrategy) GenericDelete()            {}
func (persistentVolumeStrategy) GenericDelete()                 {}
func (podDisruptionBudgetStrategy) GenericDelete()              {}
func (podTemplateStrategy) GenericDelete()                      {}
func (priorityLevelStrategy) GenericDelete()                    {}
func (replicaSetStrategy) GenericDelete()                       {}
func (replicationControllerStrategy) GenericDelete()            {}
func (resourceQuotaStrategy) GenericDelete()                    {}
func (roleStrategy) GenericDelete()                             {}
func (runtimeClassStrategy) GenericDelete()                     {}
func (secretStrategy) GenericDelete()                           {}
func (serviceAccountStrategy) GenericDelete()                   {}
func (serviceCIDRStrategy) GenericDelete()                      {}
func (statefulSetStrategy) GenericDelete()                      {}
func (storageClassStrategy) GenericDelete()                     {}
func (mutatingAdmissionPolicyBindingStrategy) GenericDelete()   {}
func (mutatingAdmissionPolicyStrategy) GenericDelete()          {}
func (validatingAdmissionPolicyBindingStrategy) GenericDelete() {}
func (validatingAdmissionPolicyStrategy) GenericDelete()        {}
func (volumeAttachmentStrategy) GenericDelete()                 {}
func (webhookConfigurationStrategy) GenericDelete()             {}
