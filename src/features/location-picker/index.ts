export { LocationField, type LocationFieldProps } from './components/LocationField';
export { LocationPickerDialog, type LocationPickerDialogProps } from './components/LocationPickerDialog';
export { formatCoordinates } from './format';
